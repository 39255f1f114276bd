"""Play: a person against the bot (or a person) as a session, and the terminal front ends of every game."""
