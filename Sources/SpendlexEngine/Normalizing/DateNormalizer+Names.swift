extension DateNormalizer {
    /// Month names and abbreviations in English, Spanish, Portuguese, French, German, Italian, Dutch
    /// and Indonesian, lower-cased and without diacritics (see `NormalizingText.foldedLowercase`):
    /// "déc." and "Dec" both fold to "dec", "März" to "marz".
    static let monthNumbers: [String: Int] = {
        let names: [(Int, [String])] = [
            (1, ["jan", "january", "enero", "ene", "janeiro", "janvier", "janv", "januar", "janner", "jaenner",
                 "gennaio", "gen", "januari"]),
            (2, ["feb", "february", "febrero", "fevereiro", "fev", "fevrier", "fevr", "februar", "feber",
                 "febbraio", "februari", "febr"]),
            (3, ["mar", "march", "marzo", "marco", "mars", "marz", "maerz", "mrz", "maart", "mrt", "maret"]),
            (4, ["apr", "april", "abril", "abr", "avril", "avr", "aprile"]),
            (5, ["may", "mayo", "maio", "mai", "maggio", "mag", "mei"]),
            (6, ["jun", "june", "junio", "junho", "juin", "juni", "giugno", "giu"]),
            (7, ["jul", "july", "julio", "julho", "juillet", "juil", "juli", "luglio", "lug"]),
            (8, ["aug", "august", "agosto", "ago", "aout", "augustus", "agustus", "agu", "agt", "ags"]),
            (9, ["sep", "sept", "september", "septiembre", "setiembre", "set", "setembro", "septembre",
                 "settembre"]),
            (10, ["oct", "october", "octubre", "outubro", "out", "octobre", "okt", "oktober", "ottobre", "ott"]),
            (11, ["nov", "november", "noviembre", "novembro", "novembre"]),
            (12, ["dec", "december", "diciembre", "dic", "dezembro", "dez", "decembre", "dezember", "dicembre",
                  "desember", "des"]),
        ]
        var table: [String: Int] = [:]
        for (number, words) in names {
            for word in words { table[word] = number }
        }
        return table
    }()

    /// Weekday names and abbreviations in the same languages, folded like `monthNumbers`.
    static let weekdayNames: Set<String> = [
        // English
        "mon", "monday", "tue", "tues", "tuesday", "wed", "weds", "wednesday", "thu", "thur", "thurs",
        "thursday", "fri", "friday", "sat", "saturday", "sun", "sunday",
        // Spanish
        "lun", "lunes", "mar", "martes", "mie", "miercoles", "jue", "jueves", "vie", "viernes", "sab",
        "sabado", "dom", "domingo",
        // Portuguese
        "seg", "segunda", "ter", "terca", "qua", "quarta", "qui", "quinta", "sex", "sexta",
        // French
        "lundi", "mardi", "mer", "mercredi", "jeu", "jeudi", "ven", "vendredi", "sam", "samedi", "dim",
        "dimanche",
        // German
        "mo", "montag", "di", "dienstag", "mi", "mittwoch", "do", "donnerstag", "fr", "freitag", "sa",
        "samstag", "sonnabend", "so", "sonntag",
        // Italian
        "lunedi", "martedi", "mercoledi", "gio", "giovedi", "venerdi", "sabato", "domenica",
        // Dutch
        "ma", "maandag", "dinsdag", "wo", "woensdag", "donderdag", "vr", "vrijdag", "za", "zaterdag", "zo",
        "zondag",
        // Indonesian
        "sen", "senin", "sel", "selasa", "rab", "rabu", "kam", "kamis", "jum", "jumat", "sabtu", "min", "minggu",
    ]

    /// Words that are both a month and a weekday abbreviation: "mar" is March, and Tuesday in
    /// Spanish, French and Italian. Read as the month unless another word names the month.
    static let ambiguousWeekdays: Set<String> = ["mar"]

    /// Words that may sit between the parts of a written date: "2 de mayo de 2026", "the 2nd of May",
    /// "le 2 mai", "den 2. Mai", "segunda-feira", "tanggal 2 Mei".
    static let fillerWords: Set<String> = [
        "de", "del", "da", "of", "the", "le", "el", "den", "am", "feira", "tanggal", "tgl",
    ]

    /// Ordinal endings written against the day: "1st", "2nd", "3rd", "4th", "1er", "2e", "2º".
    static let ordinalSuffixes: Set<String> = ["st", "nd", "rd", "th", "er", "re", "e", "eme", "o", "a", "º", "ª"]
}
