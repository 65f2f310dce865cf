public import SondePipeline

/// The device `sonde bench` measures unless told otherwise: a 2970 rpm machine, per channel
/// a tone with two harmonics, a high tone, noise and an offset.
public enum BenchDevice {
    public static func profile(rate: Double, channels: Int) throws -> DeviceProfile {
        let list = (0..<channels).map { index in
            var channel = DeviceProfile.Channel(name: "ch\(index)")
            channel.tones = [
                DeviceProfile.Tone(frequency: 49.5 * Double(index + 1), amplitude: 1, harmonics: [0.3, 0.1]),
                DeviceProfile.Tone(frequency: 1234.5, amplitude: 0.2),
            ]
            channel.noise = 0.05
            channel.offset = Double(index)
            return channel
        }
        return try DeviceProfile(name: "bench", sampleRate: rate, channels: list)
    }
}
