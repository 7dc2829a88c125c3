print("glossa: under construction")
