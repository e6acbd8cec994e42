extension Duration {
    /// The duration in seconds, as a `Double`: for reports and benchmarks, never for timing
    /// the media itself (presentation times are rational, ``MediaTime``).
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
