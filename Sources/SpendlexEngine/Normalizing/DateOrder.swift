/// The order of day, month and year in an all-numeric date such as `05/02/26`.
public enum DateOrder: String, Sendable {
    /// `02/05/2026` is 2 May: most of the world.
    case dayMonthYear = "dmy"
    /// `05/02/2026` is 2 May: the United States, the Philippines and a few others.
    case monthDayYear = "mdy"
    /// `26/05/02` is 2 May 2026: China, Japan, Korea, Taiwan, Hungary, Lithuania, Mongolia.
    case yearMonthDay = "ymd"

    /// The usual order for an ISO 3166-1 alpha-2 country (any case): US, PH, FM, MH, PW and the US
    /// territories → `monthDayYear`; CN, JP, KR, KP, TW, HU, LT, MN → `yearMonthDay`; anything else,
    /// nil included → `dayMonthYear`.
    public static func forCountry(_ country: String?) -> DateOrder {
        guard let country else { return .dayMonthYear }
        switch NormalizingText.trimmed(country).uppercased() {
        case "US", "PH", "FM", "MH", "PW", "AS", "GU", "MP", "PR", "VI", "UM":
            return .monthDayYear
        case "CN", "JP", "KR", "KP", "TW", "HU", "LT", "MN":
            return .yearMonthDay
        default:
            return .dayMonthYear
        }
    }
}
