"""Reports: report.md, report.json and report.png for `kernelopt optimize`."""
