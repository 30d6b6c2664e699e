"""Performance model and measurement: bytes/FLOP counting (`counting`), per-GPU ceilings
(`ceilings`, table in `ceilings.json`), single-launch GPU timing (`measure`) with a disk cache
(`timing_cache`)."""
