"""The browser GUI: a small local web app over the standard library's http.server."""
