"""RISC's shared package: the rules, the maps and the words the server and clients exchange.

Pure code only: no I/O beyond reading a map file on request, no clock, no global random state.
"""
