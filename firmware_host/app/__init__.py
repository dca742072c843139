"""The service as it runs: the one builder, scripted runs, systemd notify, logging."""
