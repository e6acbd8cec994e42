import SlideshowSupport

/// One problem of a manifest: the job and the field at fault, and why.
public struct ManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The job's index (from 0); nil when the manifest as a whole is at fault (not JSON, unreadable).
    public var job: Int?
    /// The field at fault, as the manifest spells it (e.g. `durration`); nil when the job as a whole is.
    public var field: String?
    /// Why, e.g. `unknown field (did you mean duration?)`.
    public var reason: String

    /// Creates an error.
    public init(job: Int?, field: String?, reason: String) {
        self.job = job
        self.field = field
        self.reason = reason
    }

    /// `job 3: durration: unknown field (did you mean duration?)`, `job 0: output: missing`, …,
    /// always one line (`Message/oneLine(_:)`).
    public var description: String {
        Message.oneLine([job.map { "job \($0)" }, field, reason].compactMap { $0 }.joined(separator: ": "))
    }
}

/// A manifest that cannot be run, with every problem found in it. Nothing was rendered.
public struct InvalidManifest: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems, in the jobs' order.
    public var errors: [ManifestError]

    /// Creates the error.
    public init(errors: [ManifestError]) {
        self.errors = errors
    }

    /// One line per problem.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
