enum ServerAPIPlaceholder {}
