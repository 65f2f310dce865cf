import SondeCore
public import SondeIO
import SondePipeline

/// Which simulated device a command runs (`stream`, `bench`, `device pair`): a profile
/// file, a device described by flags, or none (the paired device, or a command's own
/// default). The profile's text is what pairing stores and what the device is made from.
public enum SimulatedProfile {
    /// Profile text from `profilePath` (a file in the format before 0.8 is read with a note
    /// that says how to convert it) or from `flags`, as TOML; nil when neither is given.
    /// - Parameters:
    ///   - shape: `--rate` and `--channels` shape a device made from flags; with a profile
    ///     they are refused (the profile sets both), as is `--sample-type` (raw input only).
    ///   - defaultRate: the rate of a device made from flags without `--rate`.
    /// - Throws: `SondeError(.invalidArgument)` for options that cannot apply together.
    public static func text(
        profilePath: String?, flags: DeviceFlags, shape: SampleSourceOptions, defaultRate: Double = 1000,
        defaultChannels: Int = 1
    ) throws -> (text: String, source: String)? {
        if shape.sampleType != nil, profilePath != nil || flags.describesDevice {
            throw SondeError(
                .invalidArgument, "--sample-type applies to raw input (--input FILE), not to a simulated device")
        }
        if let profilePath {
            guard !flags.describesDevice else {
                throw SondeError(
                    .invalidArgument,
                    "--profile and device flags (--tone, --noise, ...) cannot be combined; put the settings in the profile"
                )
            }
            try refuseInputShape(shape, device: "the profile \(profilePath)")
            let text = try DeviceProfile.text(path: profilePath)
            guard DeviceProfile.isLegacyText(text) else { return (text, profilePath) }
            // Parsed before the note, so that a broken old file gives its error alone.
            let converted = try DeviceProfile.parse(text, source: profilePath).tomlText
            Diagnostics.note(
                "\(profilePath) is in the profile format before sonde 0.8, which a later version will not read; "
                    + "convert it to TOML with: sonde device convert-profile \(profilePath) -o NEW.toml")
            return (converted, profilePath)
        }
        guard flags.describesDevice else { return nil }
        let device = try flags.profile(
            rate: shape.sampleRate ?? defaultRate, channels: shape.channels ?? defaultChannels)
        return (device.tomlText, "command line")
    }

    /// Refuses `--rate`, `--channels` and `--sample-type` for a device that sets its own
    /// (a profile, the paired device): they would otherwise be silently ignored.
    /// - Throws: `SondeError(.invalidArgument)` naming the options given and the device.
    public static func refuseInputShape(_ shape: SampleSourceOptions, device: String) throws {
        let given = [
            ("--rate", shape.sampleRate != nil), ("--channels", shape.channels != nil),
            ("--sample-type", shape.sampleType != nil),
        ]
        .filter(\.1).map(\.0)
        guard !given.isEmpty else { return }
        throw SondeError(
            .invalidArgument,
            "\(given.joined(separator: " and ")) cannot apply to \(device), which sets its own rate and channels; "
                + "they apply to raw input (--input FILE) and to a device described by --tone, --noise, ...")
    }
}
