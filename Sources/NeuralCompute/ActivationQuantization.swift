/// Dynamic per-row quantization of activations before an int8 GEMM, as CTranslate2 quantizes
/// them (weights are converted at load by NeuralEngine's `WeightConversion`).
enum ActivationQuantization {
    /// Quantizes one activation row as CTranslate2 does before a u8s8 GEMM (oneDNN/MKL):
    /// q = round(x·scale + 128) with the multiply-add fused (as GCC built it), as unsigned bytes
    /// (both int8 kernels multiply u8 by s8). The add drops low bits of x·scale, so this differs
    /// from round(x·scale) + 128 near ties. Returns the scale.
    @inline(__always)
    static func rowUnsigned(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<UInt8>, depth: Int) -> Float {
        quantizeShifted(x, depth: depth) { j, n in y[j] = UInt8(truncatingIfNeeded: n) }
    }

    /// Calls `store(j, n)` with n = round(x[j]·scale + 128) ∈ [0, 255] in its low byte; returns scale.
    @inline(__always)
    private static func quantizeShifted(_ x: UnsafePointer<Float>, depth: Int, _ store: (Int, UInt32) -> Void) -> Float {
        let scale: Float
        let amax = absMax(x, count: depth)
        scale = amax != 0 ? 127 / amax : 1
        // Adding 1.5·2²³ rounds a value in [0, 2²²) to an integer, ties to even (the FPU's
        // default mode, as CTranslate2's _mm256_round_ps), leaving it in the low mantissa bits.
        // Unlike Float → Int conversion this has no trap path, so the loop vectorises.
        let magic: Float = 12_582_912
        for j in 0..<depth {
            let shifted = Float(128).addingProduct(x[j], scale)
            store(j, (Swift.min(255, Swift.max(0, shifted)) + magic).bitPattern)
        }
        return scale
    }

    /// max |x[j]|. Non-negative floats order like their bit patterns, so this is an integer
    /// maximum over the patterns with the sign bit cleared, which LLVM vectorises (a float
    /// max with Swift's NaN rules does not). The result is exact, like CTranslate2's reduce_amax.
    @inline(__always)
    static func absMax(_ x: UnsafePointer<Float>, count: Int) -> Float {
        var bits: UInt32 = 0
        for j in 0..<count { bits = Swift.max(bits, x[j].bitPattern & 0x7FFF_FFFF) }
        return Float(bitPattern: bits)
    }
}
