"""The promises a run keeps: writes that never clobber, output-path policy, signals, standard streams, claims."""
