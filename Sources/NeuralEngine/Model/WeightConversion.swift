import Foundation
import NeuralCompute
import TranslationCore

/// Conversions from `model.bin` bytes to compute types, following CTranslate2's
/// `Model::ensure_dtype`: float16/bfloat16 widen to float32; int8/int16 dequantize as
/// value·(1/scale); float → int8 quantizes per row with scale 127/amax, rounding to nearest even.
enum WeightConversion {
    /// The float values of `raw`, dequantized with `scale` when `raw` is an integer type.
    static func floats(_ raw: RawVariable, scale: RawVariable?) throws -> [Float] {
        let n = raw.count
        var out = [Float](repeating: 0, count: n)
        try raw.bytes.withUnsafeBytes { src in
            switch raw.type {
            case .float32:
                for i in 0..<n { out[i] = Float(bitPattern: src.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self).littleEndian) }
            case .float16:
                for i in 0..<n { out[i] = Float(Float16(bitPattern: src.loadUnaligned(fromByteOffset: i * 2, as: UInt16.self).littleEndian)) }
            case .bfloat16:
                for i in 0..<n { out[i] = Float(bitPattern: UInt32(src.loadUnaligned(fromByteOffset: i * 2, as: UInt16.self).littleEndian) << 16) }
            case .int8, .int16:
                guard let scale else {
                    throw TranslationError(.engineFailure, "Malformed model: quantized variable \(raw.name) has no \(raw.name)_scale.")
                }
                let scales = try floats(scale, scale: nil)
                let rows = raw.shape.first ?? 1
                let depth = rows > 0 ? n / rows : 0
                guard scales.count == 1 || scales.count == rows else {
                    throw TranslationError(.engineFailure, "Malformed model: \(scale.name) has \(scales.count) values for \(rows) rows of \(raw.name).")
                }
                for i in 0..<n {
                    let q: Float = raw.type == .int8
                        ? Float(src.load(fromByteOffset: i, as: Int8.self))
                        : Float(Int16(littleEndian: src.loadUnaligned(fromByteOffset: i * 2, as: Int16.self)))
                    let s = scales.count == 1 ? scales[0] : scales[depth > 0 ? i / depth : 0]
                    out[i] = q * (1 / s)
                }
            case .int32:
                for i in 0..<n { out[i] = Float(Int32(littleEndian: src.loadUnaligned(fromByteOffset: i * 4, as: Int32.self))) }
            }
        }
        raw.dropPages()
        return out
    }

    /// Per-row symmetric int8 quantization of a [rows, depth] matrix: (values, scales) where
    /// value = round(x·scale) and scale = 127/amax(row) (1 for an all-zero row).
    static func quantizeRows(_ x: [Float], rows: Int, depth: Int) -> (values: [Int8], scales: [Float]) {
        var q = [Int8](repeating: 0, count: rows * depth)
        var scales = [Float](repeating: 1, count: rows)
        x.withUnsafeBufferPointer { src in
            q.withUnsafeMutableBufferPointer { dst in
                for r in 0..<rows {
                    scales[r] = quantizeRow(src.baseAddress! + r * depth, dst.baseAddress! + r * depth, depth: depth)
                }
            }
        }
        return (q, scales)
    }

    /// Quantizes one row; returns its scale.
    @inline(__always)
    static func quantizeRow(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Int8>, depth: Int) -> Float {
        var amax: Float = 0
        for j in 0..<depth { amax = max(amax, abs(x[j])) }
        let scale: Float = amax != 0 ? 127 / amax : 1
        for j in 0..<depth {
            let v = (x[j] * scale).rounded(.toNearestOrEven)
            y[j] = Int8(max(-128, min(127, v)))
        }
        return scale
    }

    /// The int8 values and per-row scales of a weight, converting int16/float as CTranslate2 does.
    static func int8Rows(_ raw: RawVariable, scale: RawVariable?) throws -> (values: [Int8], scales: [Float]) {
        let rows = raw.shape.first ?? 1
        let depth = rows > 0 ? raw.count / rows : 0
        if raw.type == .int8, let scale {
            let scales = try floats(scale, scale: nil)
            guard scales.count == rows else {
                throw TranslationError(.engineFailure, "Malformed model: \(scale.name) has \(scales.count) values for \(rows) rows of \(raw.name).")
            }
            let values = raw.bytes.withUnsafeBytes { Array($0.bindMemory(to: Int8.self)) }
            raw.dropPages()
            return (values, scales)
        }
        return quantizeRows(try floats(raw, scale: scale), rows: rows, depth: depth)
    }
}
