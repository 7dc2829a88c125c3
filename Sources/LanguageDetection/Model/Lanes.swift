/// Whole-row operations on per-language rows of ``ScoringTables/stride`` floats, eight lanes at
/// a time.
///
/// Why explicit vectors: a loop such as `p[l] = c <= 0 ? c : p[l]` is a conditional store to the
/// optimizer, which it leaves scalar (a compare and a branch per lane); written as a select of
/// two loaded vectors it is a compare and a blend per eight lanes. Each lane does exactly the
/// operation the scalar loop did (the same compare, the same single addition), so every float is
/// bit for bit what the scalar loop gave.
///
/// Every function requires `count` to be a multiple of 8 (``ScoringTables/stride`` is) and the
/// pointers to hold `count` floats; the loads are unaligned, so no alignment is assumed.
enum Lanes {
    typealias Vector = SIMD8<Float>

    @inline(__always) private static func load(_ p: UnsafePointer<Float>, _ l: Int) -> Vector {
        UnsafeRawPointer(p + l).loadUnaligned(as: Vector.self)
    }

    @inline(__always) private static func store(_ v: Vector, _ p: UnsafeMutablePointer<Float>, _ l: Int) {
        UnsafeMutableRawPointer(p + l).storeBytes(of: v, as: Vector.self)
    }

    /// `target[l] = values[l] <= 0 ? values[l] : kept[l]`: a conditional row over a fallback
    /// (a positive lane is ``ScoringTables/absentConditional``, no value).
    @inline(__always) static func select(_ values: UnsafePointer<Float>, else kept: UnsafePointer<Float>,
                                         into target: UnsafeMutablePointer<Float>, count: Int) {
        var l = 0
        while l < count {
            let c = load(values, l)
            store(load(kept, l).replacing(with: c, where: c .<= 0), target, l)
            l += 8
        }
    }

    /// `target[l] = values[l] <= 0 ? values[l] : target[l]`.
    @inline(__always) static func override(_ target: UnsafeMutablePointer<Float>, with values: UnsafePointer<Float>, count: Int) {
        select(values, else: UnsafePointer(target), into: target, count: count)
    }

    /// `target[l] += values[l]`.
    @inline(__always) static func add(_ values: UnsafePointer<Float>, to target: UnsafeMutablePointer<Float>, count: Int) {
        var l = 0
        while l < count {
            store(load(UnsafePointer(target), l) + load(values, l), target, l)
            l += 8
        }
    }

    /// `target[l] = values[l]`.
    @inline(__always) static func copy(_ values: UnsafePointer<Float>, into target: UnsafeMutablePointer<Float>, count: Int) {
        target.update(from: values, count: count)
    }
}
