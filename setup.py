"""The parts of the build pyproject.toml cannot express: the optional C matcher and the registry.

``bleucli._speedups`` is optional: without a C compiler the build still
succeeds and bleucli runs its pure-Python matchers, with the same scores.
The test-set registry lives at the top of the repository (``testsets.yaml``)
and is copied into the package so that an installed bleucli finds it.
"""

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

REGISTRY = Path(__file__).parent / "testsets.yaml"


class BuildWithRegistry(build_py):
    def run(self) -> None:
        super().run()
        if not self.editable_mode:  # an editable install reads the registry where it is
            target = Path(self.build_lib) / "bleucli" / "testsets.yaml"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(REGISTRY, target)


setup(
    cmdclass={"build_py": BuildWithRegistry},
    # _speedups_chrf.c, _speedups_ter.c, _speedups_resample.c and _speedups_bootstrap.c are #included by _speedups.c: one extension module, rebuilt
    # when any of them changes
    ext_modules=[Extension("bleucli._speedups", ["bleucli/_speedups.c"], optional=True,
                           depends=["bleucli/_speedups_chrf.c", "bleucli/_speedups_ter.c",
                                    "bleucli/_speedups_resample.c", "bleucli/_speedups_bootstrap.c"])],
)
