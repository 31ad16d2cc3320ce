import Foundation

/// What a quantity measures, read from its unit as written.
public enum Measure: String, ClosedSet {
    case pressure, temperature, volume, weight, length, duration, power, energy, electrical, speed, percentage, frequency, sound, area

    /// The measure of a number-and-unit string ("2.4 bar", "60 °c", "3 hours"), or nil when the
    /// word after the number is not a unit ("3 bedrooms").
    public static func of(quantity: String) -> Measure? {
        let t = quantity.lowercased()
        if t.contains("°") { return t.hasSuffix("c") || t.hasSuffix("f") ? .temperature : nil }
        if t.hasSuffix("%") || t.hasSuffix("per cent") || t.hasSuffix("percent") { return .percentage }
        guard let unitStart = t.lastIndex(where: { $0 == " " || $0.isNumber }) else { return nil }
        var unit = String(t[t.index(after: unitStart)...])
        if let paren = unit.firstIndex(of: "(") { unit = String(unit[..<paren]) }
        return units[unit]
    }

    static let units: [String: Measure] = {
        var u: [String: Measure] = [:]
        for w in ["bar", "psi", "kpa", "mpa", "pa", "mbar", "atm"] { u[w] = .pressure }
        for w in ["degrees", "degree", "°c", "°f", "celsius", "fahrenheit", "c", "kelvin"] { u[w] = .temperature }
        for w in ["litre", "litres", "liter", "liters", "l", "ml", "cl", "dl", "gallon", "gallons", "pint", "pints", "m³", "cc", "cm3", "ltr"] { u[w] = .volume }
        for w in ["kg", "g", "mg", "gram", "grams", "kilogram", "kilograms", "kilo", "kilos", "tonne", "tonnes", "lb", "lbs", "oz", "ounce", "ounces", "stone", "pounds"] { u[w] = .weight }
        for w in ["mm", "cm", "m", "km", "metre", "metres", "meter", "meters", "inch", "inches", "in", "ft", "feet", "foot", "mile", "miles", "yards", "yard", "miles/h"] { u[w] = .length }
        for w in ["second", "seconds", "sec", "secs", "s", "minute", "minutes", "min", "mins", "hour", "hours", "hr", "hrs", "h",
                  "day", "days", "week", "weeks", "month", "months", "year", "years", "yr", "yrs", "fortnight", "fortnights"] { u[w] = .duration }
        for w in ["w", "kw", "watt", "watts", "kilowatt", "kilowatts", "hp", "bhp", "ps"] { u[w] = .power }
        for w in ["kwh", "wh", "mwh", "kj", "j", "kcal", "cal", "calories"] { u[w] = .energy }
        for w in ["v", "volt", "volts", "a", "amp", "amps", "ampere", "mah", "ah"] { u[w] = .electrical }
        for w in ["mph", "km/h", "kph", "rpm", "m/s"] { u[w] = .speed }
        for w in ["hz", "khz", "mhz", "ghz"] { u[w] = .frequency }
        for w in ["db", "db(a)", "dba"] { u[w] = .sound }
        for w in ["m²", "m2", "sq", "acres", "acre", "hectares"] { u[w] = .area }
        return u
    }()
}
