print("widgetd-load")
