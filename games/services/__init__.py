"""Service functions: the only code that changes games. Views call these; these call the
rules engine and the scoring package, and keep the database consistent."""
