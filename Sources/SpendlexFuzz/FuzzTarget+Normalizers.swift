import SpendlexEngine

extension FuzzTarget {
    static func amount(_ bytes: [UInt8]) {
        let raw = String(decoding: bytes, as: UTF8.self)
        for mark in [AmountNormalizer.DecimalMark.auto, .point, .comma] {
            for country in [nil, "IN", "ID", "BH"] {
                _ = try? AmountNormalizer(decimalMark: mark, country: country).normalize(raw)
            }
        }
    }

    /// `format|date` uses a fixed format; anything else is detected, in every order, with and
    /// without a reference date.
    static func date(_ bytes: [UInt8]) {
        let raw = String(decoding: bytes, as: UTF8.self)
        let reference = LocalDate(year: 2026, month: 1, day: 3)
        if let bar = raw.firstIndex(of: "|") {
            let format = String(raw[..<bar])
            let value = String(raw[raw.index(after: bar)...])
            if let normalizer = try? DateNormalizer(format: format) {
                _ = try? normalizer.normalize(value, reference: reference)
                _ = try? normalizer.normalize(value, reference: nil)
            }
        }
        for order in [DateOrder.dayMonthYear, .monthDayYear, .yearMonthDay] {
            guard let normalizer = try? DateNormalizer(order: order) else { continue }
            _ = try? normalizer.normalize(raw, reference: reference)
            _ = try? normalizer.normalize(raw, reference: nil)
        }
    }

    static func time(_ bytes: [UInt8]) {
        let raw = String(decoding: bytes, as: UTF8.self)
        if let time = try? TimeNormalizer.normalize(raw) { _ = "\(time)" }
    }
}
