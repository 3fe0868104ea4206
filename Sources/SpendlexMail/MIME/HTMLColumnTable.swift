/// An e-mail's table whose first row names its columns and whose next rows hold the values, as
/// labelled lines: "Fecha | Moneda | Monto | Comercio" over "06/04/2026 | RD | $925.00 | SAMPLE
/// TIENDA" becomes "Fecha: 06/04/2026", "Moneda: RD", "Monto: $925.00", "Comercio: SAMPLE TIENDA".
/// Rules read a value by its label on the same line ("Monto: …", "Comercio: …"); a column table
/// puts the label a row above, where no pattern can pair them.
///
/// A row is a line of the converted text with " | " between its cells. A header row has three
/// cells or more, each a short name with a letter, no digit and no closing colon (a two-cell row
/// "Amount: | SGD 4.00" is a label and its value already, and is left alone); the rows of values
/// under it have as many cells, and a digit somewhere. An empty cell is not written by the
/// converter, so a row with one has fewer cells than its header: it is left as it is rather than
/// paired with the wrong names.
enum HTMLColumnTable {
    static let separator = " | "

    static func labelled(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var output: [Substring] = []
        var changed = false
        var i = 0
        while i < lines.count {
            guard let header = headerCells(lines[i]) else {
                output.append(lines[i])
                i += 1
                continue
            }
            var j = i + 1
            var labelled: [Substring] = []
            while j < lines.count, let values = valueCells(lines[j], count: header.count) {
                for (name, value) in zip(header, values) where !value.isEmpty {
                    labelled.append(Substring(name + ": " + value))
                }
                j += 1
            }
            if j == i + 1 {
                output.append(lines[i])
                i += 1
            } else {
                output.append(contentsOf: labelled)
                changed = true
                i = j
            }
        }
        return changed ? output.joined(separator: "\n") : text
    }

    /// The names of a header row's cells, or nil when the line is no header row.
    static func headerCells(_ line: Substring) -> [Substring]? {
        guard line.contains("|") else { return nil }
        let cells = line.split(separator: separator, omittingEmptySubsequences: false)
        guard cells.count >= 3 else { return nil }
        for cell in cells {
            guard !cell.isEmpty, cell.count <= 32, cell.last != ":",
                  cell.contains(where: \.isLetter), !cell.contains(where: \.isNumber) else { return nil }
        }
        return cells
    }

    /// A row of values under a header of `count` cells, or nil when the line is none.
    static func valueCells(_ line: Substring, count: Int) -> [Substring]? {
        guard line.contains("|"), line.contains(where: \.isNumber) else { return nil }
        let cells = line.split(separator: separator, omittingEmptySubsequences: false)
        guard cells.count == count, !cells.contains(where: { $0.last == ":" }) else { return nil }
        return cells
    }
}
