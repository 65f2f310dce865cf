// Public because the library types are public; the conformances live only in the executable.
public import ArgumentParser
public import SondeCore
public import SondeDSP
public import SondeIO
public import SondePipeline

extension SampleFormat: ExpressibleByArgument {}
extension OutputFormat: ExpressibleByArgument {}
extension SpectrumWriter.Format: ExpressibleByArgument {}
extension ParquetCompression: ExpressibleByArgument {}
extension LiveClockSource.OverrunPolicy: ExpressibleByArgument {}
extension AccelerationUnit: ExpressibleByArgument {}
extension VelocityUnit: ExpressibleByArgument {}
