//! Testbenches of antichip: oracle checks against shakmaty, co-simulation of the exported Verilog (Icarus, Verilator, yosys gate netlist) and the FPGA flow driver.
