import WidgetProtocol

/// The introspection XML of `/org/widgetd/WidgetCenter1`, written from the method table, the
/// signal declarations and the properties: what `busctl introspect` and `gdbus introspect` show.
enum DBusIntrospection {
    /// The properties and their values: read-only and constant while widgetd runs.
    static let properties: [(name: String, value: DBusValue)] = [
        ("Version", .string(ProtocolVersion.daemonVersion)),
        ("Protocol", .uint32(UInt32(ProtocolVersion.current))),
    ]

    static let xml: String = {
        var out = """
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <node>
             <interface name="org.freedesktop.DBus.Peer">
              <method name="Ping"/>
              <method name="GetMachineId"><arg type="s" name="machine_uuid" direction="out"/></method>
             </interface>
             <interface name="org.freedesktop.DBus.Introspectable">
              <method name="Introspect"><arg name="xml_data" type="s" direction="out"/></method>
             </interface>
             <interface name="org.freedesktop.DBus.Properties">
              <method name="Get"><arg name="interface_name" direction="in" type="s"/><arg name="property_name" direction="in" type="s"/><arg name="value" direction="out" type="v"/></method>
              <method name="GetAll"><arg name="interface_name" direction="in" type="s"/><arg name="props" direction="out" type="a{sv}"/></method>
              <method name="Set"><arg name="interface_name" direction="in" type="s"/><arg name="property_name" direction="in" type="s"/><arg name="value" direction="in" type="v"/></method>
              <signal name="PropertiesChanged"><arg type="s" name="interface_name"/><arg type="a{sv}" name="changed_properties"/><arg type="as" name="invalidated_properties"/></signal>
             </interface>

            """
        out += " <interface name=\"\(DBusNames.interface)\">\n"
        for method in DBusMethodTable.methods {
            out += "  <method name=\"\(method.name)\">\n"
            for arg in method.inArgs { out += "   <arg type=\"\(arg.signature)\" name=\"\(arg.name)\" direction=\"in\"/>\n" }
            for arg in method.outArgs { out += "   <arg type=\"\(arg.signature)\" name=\"\(arg.name)\" direction=\"out\"/>\n" }
            out += "  </method>\n"
        }
        for signal in DBusSignal.declarations {
            out += "  <signal name=\"\(signal.name)\">\n"
            for arg in signal.args { out += "   <arg type=\"s\" name=\"\(arg)\"/>\n" }
            out += "  </signal>\n"
        }
        for property in properties {
            out += "  <property name=\"\(property.name)\" type=\"\(property.value.signature)\" access=\"read\">\n"
            out += "   <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"const\"/>\n"
            out += "  </property>\n"
        }
        out += " </interface>\n</node>\n"
        return out
    }()
}
