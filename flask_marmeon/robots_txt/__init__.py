"""robots.txt: its text from configuration, and the checks of the app's
rules per crawler (MARMEON_ROBOTS_RULES)."""
