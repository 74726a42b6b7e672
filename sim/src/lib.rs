//! Cycle simulator of `hw` netlists, VCD waveform writer, and the gate-delay timing model.
