"""Modern Art: Masters Gallery (Knizia): cards, deals, rules engine, records, agents.

``play_game(deal, agents, seed, options)`` plays one game and returns a
:class:`~envs.gallery.record.GalleryRecord`; the assumed rules are options of
:class:`~envs.gallery.engine.GalleryOptions` (see :mod:`envs.gallery.engine`).
"""
