"""What decides currency: the on-disk result cache, every fingerprint and version, report records."""
