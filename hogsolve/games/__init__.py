"""The game interface every game implements (OpenSpiel's idea in our terms)."""
