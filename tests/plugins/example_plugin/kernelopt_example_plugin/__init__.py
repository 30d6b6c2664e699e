"""An example third-party KernelOPT pass package (installed by the test script)."""
