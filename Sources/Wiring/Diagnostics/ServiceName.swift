/// `Key`, or `Key[name]` for a named variant: how messages, paths and reports show a service.
func shownService(_ key: String, name: String?) -> String {
    name.map { "\(key)[\($0)]" } ?? key
}
