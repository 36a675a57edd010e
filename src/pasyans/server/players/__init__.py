"""A player's devices and data: linking another device with a one-time code, unlinking,
the list of devices (:mod:`.devices`); the export and deletion of everything stored about
the player (:mod:`.data`). docs/devices.md."""
