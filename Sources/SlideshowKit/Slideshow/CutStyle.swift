import SlideshowPlan

/// Where a show's cuts fall (`--cuts even|beats`, a manifest's `cuts`).
public enum CutStyle: String, Sendable, Hashable, CaseIterable {
    /// The length shared out evenly (or by the photos' own durations): the default.
    case even
    /// Every cut moved to a beat of the music (`BeatCutPlanner`), falling back to even cuts
    /// with a warning where the music has no steady beat or the shares would move too far.
    case beats
}

extension CutStyle: SettingChoice {}
extension PhotoOrder: SettingChoice {}
