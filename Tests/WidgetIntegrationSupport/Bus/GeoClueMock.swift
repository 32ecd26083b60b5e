import Foundation

/// A small GeoClue2 for `python3-dbusmock` (it has no template of its own): the manager's
/// `GetClient`, a client with `DesktopId`, `DistanceThreshold`, `Active` and `Location`, whose
/// `Start` publishes a location object and `LocationUpdated`; the mock method `SetPosition(dd)`
/// moves it. Every call is in the mock's call log.
enum GeoClueMock {
    static let manager = "/org/freedesktop/GeoClue2/Manager"
    static let client = "/org/freedesktop/GeoClue2/Client/1"
    static let clientInterface = "org.freedesktop.GeoClue2.Client"

    /// Writes the template into `directory` and returns its path.
    static func template(in directory: String) throws -> String {
        let path = directory + "/geoclue2.py"
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let source = #"""
        import dbus
        from dbusmock import MOCK_IFACE, mockobject

        BUS_NAME = 'org.freedesktop.GeoClue2'
        MAIN_OBJ = '/org/freedesktop/GeoClue2/Manager'
        MAIN_IFACE = 'org.freedesktop.GeoClue2.Manager'
        SYSTEM_BUS = True
        CLIENT = '/org/freedesktop/GeoClue2/Client/1'
        CLIENT_IFACE = 'org.freedesktop.GeoClue2.Client'
        LOCATION_IFACE = 'org.freedesktop.GeoClue2.Location'


        def load(mock, parameters):
            mockobject.geo_position = (52.52, 13.405)
            mockobject.geo_count = 0
            mock.AddProperties(MAIN_IFACE, {'InUse': False, 'AvailableAccuracyLevel': dbus.UInt32(8)})


        def publish(client):
            mockobject.geo_count += 1
            path = dbus.ObjectPath('/org/freedesktop/GeoClue2/Location/%d' % mockobject.geo_count)
            latitude, longitude = mockobject.geo_position
            mockobject.objects[MAIN_OBJ].AddObject(path, LOCATION_IFACE, {
                'Latitude': dbus.Double(latitude), 'Longitude': dbus.Double(longitude),
                'Accuracy': dbus.Double(20.0), 'Altitude': dbus.Double(0.0), 'Speed': dbus.Double(-1.0),
                'Heading': dbus.Double(-1.0), 'Description': '',
            }, [])
            old = client.Get(CLIENT_IFACE, 'Location')
            client.props[CLIENT_IFACE]['Location'] = path
            client.EmitSignal(CLIENT_IFACE, 'LocationUpdated', 'oo', [old, path])


        def start(client):
            client.props[CLIENT_IFACE]['Active'] = True
            publish(client)


        def stop(client):
            client.props[CLIENT_IFACE]['Active'] = False


        @dbus.service.method(MAIN_IFACE, in_signature='', out_signature='o')
        def GetClient(self):
            if CLIENT not in mockobject.objects:
                self.AddObject(CLIENT, CLIENT_IFACE, {
                    'DesktopId': '', 'DistanceThreshold': dbus.UInt32(0), 'TimeThreshold': dbus.UInt32(0),
                    'RequestedAccuracyLevel': dbus.UInt32(0), 'Active': False, 'Location': dbus.ObjectPath('/'),
                }, [('Start', '', '', start), ('Stop', '', '', stop)])
            return dbus.ObjectPath(CLIENT)


        @dbus.service.method(MOCK_IFACE, in_signature='dd', out_signature='')
        def SetPosition(self, latitude, longitude):
            mockobject.geo_position = (latitude, longitude)
            client = mockobject.objects.get(CLIENT)
            if client is not None and client.props[CLIENT_IFACE]['Active']:
                publish(client)
        """#
}
