"""The kernel templates, one folder each: `<name>/<name>.py.j2` and the module that matches, varies and
renders it (see `kernelopt.templates.kernel_template`); `_common.j2` holds the pieces they share."""
