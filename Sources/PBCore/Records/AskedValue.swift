/// The kind of value a lookup asks for (`analysis.asks`). A value of another kind is never the
/// answer: a Gas Safe registration number does not answer "what is Dave's phone number?".
public enum AskedValue: String, ClosedSet {
    /// An amount of money ("£250", "86.40 EUR").
    case money
    /// A number with a unit: pressure, temperature, volume, weight, length, power, energy,
    /// duration ("2.4 bar", "60 °C", "9.5 litres", "3 months").
    case quantity
    /// A bare count or figure ("how many place settings?").
    case number
    /// A calendar date ("12 January 2027", "2024-03-12").
    case date
    /// A time of day ("09:30", "half past two").
    case time
    /// A person or organisation (a capitalised name).
    case name
    /// A telephone number.
    case phone
    /// An e-mail address.
    case email
    /// A postal address.
    case address
    /// A code, reference, PIN or password ("E24", "A1B2-C3").
    case code
    /// Yes or no ("can I keep a cat?").
    case yesNo = "yes_no"
}
