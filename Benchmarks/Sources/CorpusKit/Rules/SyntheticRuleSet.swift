/// Bank rule files for rule-compiling benchmarks: `parsers` parsers with distinct patterns,
/// ten to a bank, in five shapes the bundled rules use (amount first, account first, a
/// case-insensitive payment, a multi-line card alert, per-field patterns behind a `when`), all
/// built on the bundled `grammars/common.yaml` fragments. Each parser carries one example, so
/// `spendlex test` checks that the generated files mean what they say.
public enum SyntheticRuleSet {
    /// Parsers per bank file.
    public static let parsersPerBank = 10

    /// The bank files: (file name, YAML text).
    public static func bankFiles(parsers: Int) -> [(name: String, text: String)] {
        stride(from: 0, to: parsers, by: parsersPerBank).map { first in
            let bank = first / parsersPerBank + 1
            return ("synthetic-\(bank).yaml", bankFile(bank: bank, parsers: min(parsersPerBank, parsers - first)))
        }
    }

    static func bankFile(bank: Int, parsers: Int) -> String {
        let name = "Synthetic Bank \(bank)"
        let id = "syn\(bank)"
        var text = """
            bank: \(name)
            id: \(id)
            country: IN
            currency: INR
            timezone: Asia/Kolkata
            senders: ["alerts@syn\(bank).example", "*-SYN\(bank)BK"]
            detect: ['(?i)\\bSynthetic\\s?Bank \(bank)\\b']
            ignore: ['(?i)\\bOTP\\b', {id: \(id).ignore.due, pattern: '(?i)\\bis due\\b'}]
            parsers:

            """
        for index in 0..<parsers {
            text += parser(bank: bank, name: name, id: "\(id).p\(index)", word: "K\(bank)X\(index)", shape: (bank + index) % 5)
        }
        return text
    }

    /// One parser in one of five shapes; `word` makes its pattern unique.
    static func parser(bank: Int, name: String, id: String, word: String, shape: Int) -> String {
        let head = "  - id: \(id)\n"
        switch shape {
        case 0:
            return head + """
                    direction: debit
                    kind: purchase
                    channel: card
                    account_type: card
                    pattern: '%{AMOUNT_INR:amount} spent on \(name) Card %{ACCOUNT_MASK:last4} at (?<merchant>.+?) on %{DATE:date}(?: at %{TIME:time})?\\. Ref \(word)'
                    examples:
                      - text: "Rs.1,234.50 spent on \(name) Card XX4321 at AMAZON PAY on 02-May-26 at 10:15:00. Ref \(word)"
                        expect: {amount: "1234.50", last4: "4321", merchant: AMAZON PAY, date: 2026-05-02, time: "10:15:00"}

                """
        case 1:
            return head + """
                    direction: debit
                    kind: transfer
                    channel: upi
                    account_type: account
                    pattern: '\(name): A/c %{ACCOUNT_MASK:last4} debited by %{AMOUNT:amount} on %{DATE_DAY_MONTH:date} to (?<merchant>%{VPA}) \\(\(word) (?<reference>\\d+)\\)'
                    examples:
                      - text: "\(name): A/c X0042 debited by 250.00 on 03Jun26 to swiggy@icici (\(word) 612345678901)"
                        expect: {amount: "250.00", last4: "0042", merchant: swiggy@icici, reference: "612345678901", date: 2026-06-03}

                """
        case 2:
            return head + """
                    direction: credit
                    kind: card_payment
                    account_type: card
                    pattern: '(?i)payment of %{MONEY:amount} received towards your \(name) card %{LAST4:last4} on %{DATE_NUMERIC:date} vide \(word)'
                    examples:
                      - text: "PAYMENT OF INR 15,000.00 RECEIVED TOWARDS YOUR \(name.uppercased()) CARD 9876 ON 17-05-2026 VIDE \(word.uppercased())"
                        expect: {amount: "15000.00", last4: "9876", date: 2026-05-17, direction: credit}

                """
        case 3:
            return head + """
                    direction: debit
                    kind: purchase
                    channel: card
                    account_type: card
                    pattern: |-
                      Spent %{MONEY:amount}
                      \(name) Card no\\. %{ACCOUNT_MASK:last4}
                      %{DATE_NUMERIC:date} %{TIME:time}(?: IST)?
                      (?<merchant>[^\\n]+)
                      \(word)
                    examples:
                      - text: "Spent INR 99.00\\n\(name) Card no. XX1111\\n02-05-26 19:53:18 IST\\nCHAI POINT\\n\(word)"
                        expect: {amount: "99.00", last4: "1111", merchant: CHAI POINT, date: 2026-05-02, time: "19:53:18"}

                """
        default:
            return head + """
                    direction: credit
                    kind: transfer
                    channel: upi
                    account_type: account
                    when: '(?i)\\bcredited with\\b.*\\b\(word)\\b'
                    fields:
                      amount: 'credited with %{AMOUNT_INR:amount}'
                      last4: 'Acct %{ACCOUNT_MASK:last4}'
                      date: ' on %{DATE:date}'
                      merchant: 'from (?<merchant>.+?)\\. \(word)'
                      reference: '\(word):(\\d+)'
                    examples:
                      - text: "Dear Customer, Acct XX777 is credited with Rs 500.00 on 28-May-26 from ASHA IYER. \(word):612345678901"
                        expect: {amount: "500.00", last4: "777", merchant: ASHA IYER, reference: "612345678901", date: 2026-05-28}

                """
        }
    }
}
