import TranslationCore

/// Glossa's in-process share of a translation, exposed to the benchmark only (SPI), so that its
/// cost can be told apart from Apertium's.
@_spi(Benchmark)
public enum ApertiumFormatProbe {
    /// Deformats `text`, cuts it into chunks of `chunkSize` and reformats the stream; returns the
    /// number of chunks and the reformatted text (equal to `text`).
    public static func roundTrip(_ text: String, format: TextFormat, chunkSize: Int) -> (chunks: Int, text: String) {
        let stream = format == .html ? HTMLDeformatter.deformat(text) : TextDeformatter.deformat(text)
        let chunks = Chunker.ranges(of: stream, size: chunkSize)
        return (chunks.count, Reformatter.reformat(stream.bytes))
    }
}
