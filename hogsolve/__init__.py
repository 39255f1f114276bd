"""hogsolve: exact solutions of Hog and other dice games of the Pig family."""
__version__ = "0.1.0"
