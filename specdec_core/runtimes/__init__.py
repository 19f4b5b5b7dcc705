"""Model runtimes: cached forwards, lean kernels, where models run."""
