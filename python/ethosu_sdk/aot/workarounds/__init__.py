"""Named fixes of upstream faults (ExecuTorch lowering, Vela), each with the issue it avoids."""
