"""The precision policy, one module attribute (`precision`) set by the driver and read by every pass.

- `strict` (default): fp32 computation stays fp32 — no TF32 or bf16 dot, no bf16 accumulation;
- `allow-tf32`: replacements may use TF32 matrix math for fp32 data;
- `allow-bf16`: replacements may also compute fp32 data in bf16.
The report and the emitted module's header say which policy was in force.
"""
PRECISIONS = ("strict", "allow-tf32", "allow-bf16")
