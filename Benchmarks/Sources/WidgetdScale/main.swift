print("widgetd-scale")
