"""Each game's demos, one module a game (``companion.demos.<key>``, found through ``companion.registry``):

- ``BY_HAND_VARIANT``: the variant of the by-hand demo (``companion demo --game G --camera none``,
  ``companion.app.by_hand``);
- ``CAMERA_DEMO``: what the camera demo reads: ``"photos"`` (the bundled real photos, Can't Stop),
  ``"table"`` (frames of the table rendered as the players play, ``companion.app.table_demo``) or ``""``
  (none: ``companion demo --game G`` is refused, naming ``--camera none``);
- ``TABLE_VARIANT``: the variant of the camera demo;
- ``Table``: the rendered table (``Table(config, seed)``: ``camera_actions``, ``key``, ``render``,
  ``offered``; see ``companion.app.table_demo``), or None.
"""

__all__: list[str] = []
