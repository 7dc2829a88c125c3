// CLD2 shim: see Sources/CCLD2Shim/include
