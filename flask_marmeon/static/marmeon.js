// The browser module (see issue 5).
