"""Pure-Python game engines: no Django, no I/O. See ``games.engine.registry``."""
