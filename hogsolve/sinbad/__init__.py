"""SinbadHogBot: the chat-room card-trading game (close kin to Pit).

:mod:`.rules` enforces the rules, :mod:`.room` speaks the chat protocol,
:mod:`.bots` plays, :mod:`.tournament` measures, :mod:`.odds` counts deals.
"""
