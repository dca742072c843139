"""The computer's side: the built-in engine, Hub engines, the engine worker."""
