"""The bot's database schema: numbered, forward-only ``NNN_description.sql`` files.

This folder is a package only so that the ``.sql`` files ship as package data in
the wheel; ``bot.migrations`` reads them with ``importlib.resources`` and applies
them in order (see there for the rules a migration file follows).
"""
