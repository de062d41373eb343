"""The stages of compile_model, in order: options checked, quantized, lowered, evaluated, verified, written."""
