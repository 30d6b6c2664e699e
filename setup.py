"""Package list for the package-dir mapping (ir/ -> kernelopt.ir, passes/ -> kernelopt.passes).

pyproject.toml holds all metadata; this file only computes the package list, which
`packages.find` cannot do across the remapped folders.
"""
from setuptools import find_packages, setup

MAPPED = {"kernelopt.ir": "ir", "kernelopt.passes": "passes", "kernelopt.templates": "templates"}

packages = ["kernelopt"] + [f"kernelopt.{p}" for p in find_packages("kernelopt")]
for name, folder in MAPPED.items():
    packages.append(name)
    packages += [f"{name}.{p}" for p in find_packages(folder)]

setup(packages=packages)
