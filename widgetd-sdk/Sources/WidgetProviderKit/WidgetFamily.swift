import WidgetWire

/// The size a widget instance is placed in, named as in WidgetKit: the request's own type.
public typealias WidgetFamily = WidgetWire.WidgetFamily
