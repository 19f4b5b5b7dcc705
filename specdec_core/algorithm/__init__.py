"""The algorithm: pure functions on tensors and the run's record, no models."""
