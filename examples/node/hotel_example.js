'use strict';
// The hotel data model of the seeds, with the DataStax Node.js driver (npm cassandra-driver 4.x).
//
// A plain Cassandra program: it connects with the driver's default settings, creates the
// seeds' `hotel` and `reservation` schemas (Cassandra: The Definitive Guide, ch. 5), writes a
// few rows and runs queries Q1, Q4 and Q8. It runs unchanged against Apache Cassandra and cqld.
//
//   npm install cassandra-driver@4 && node hotel_example.js
//   CASSANDRA_HOST (default 127.0.0.1) and CASSANDRA_PORT (default 9042) say where to connect.

const cassandra = require('cassandra-driver');

const { LocalDate, Uuid } = cassandra.types;

const SCHEMA = [
  // One node here: the seeds use replication_factor 3.
  `CREATE KEYSPACE IF NOT EXISTS hotel
     WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}`,
  `CREATE TYPE IF NOT EXISTS hotel.address (street text, city text, state_or_province text,
     postal_code text, country text)`,
  `CREATE TABLE IF NOT EXISTS hotel.hotels_by_poi (poi_name text, poi_description text STATIC,
     hotel_id text, name text, phone text, address frozen<address>,
     PRIMARY KEY ((poi_name), hotel_id)) WITH comment = 'Q1. Find hotels near given poi'
     AND CLUSTERING ORDER BY (hotel_id ASC)`,
  `CREATE TABLE IF NOT EXISTS hotel.hotels (id text PRIMARY KEY, name text, phone text,
     address frozen<address>, pois set<text>) WITH comment = 'Q2. Find information about a hotel'`,
  `CREATE TABLE IF NOT EXISTS hotel.pois_by_hotel (poi_name text, hotel_id text, description text,
     PRIMARY KEY ((hotel_id), poi_name)) WITH comment = 'Q3. Find pois near a hotel'`,
  `CREATE TABLE IF NOT EXISTS hotel.available_rooms_by_hotel_date (hotel_id text, date date,
     room_number smallint, is_available boolean, PRIMARY KEY ((hotel_id), date, room_number))
     WITH comment = 'Q4. Find available rooms by hotel / date'`,
  `CREATE TABLE IF NOT EXISTS hotel.amenities_by_room (hotel_id text, room_number smallint,
     amenity_name text, description text, PRIMARY KEY ((hotel_id, room_number), amenity_name))
     WITH comment = 'Q5. Find amenities for a room'`,
  `CREATE KEYSPACE IF NOT EXISTS reservation
     WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}`,
  `CREATE TYPE IF NOT EXISTS reservation.address (street text, city text, state_or_province text,
     postal_code text, country text)`,
  `CREATE TABLE IF NOT EXISTS reservation.reservations_by_confirmation (confirm_number text,
     hotel_id text, start_date date, end_date date, room_number smallint, guest_id uuid,
     PRIMARY KEY (confirm_number)) WITH comment = 'Q6. Find reservations by confirmation number'`,
  `CREATE TABLE IF NOT EXISTS reservation.reservations_by_hotel_date (hotel_id text,
     start_date date, end_date date, room_number smallint, confirm_number text, guest_id uuid,
     PRIMARY KEY ((hotel_id, start_date), room_number))
     WITH comment = 'Q7. Find reservations by hotel and date'`,
  `CREATE TABLE IF NOT EXISTS reservation.reservations_by_guest (guest_last_name text,
     hotel_id text, start_date date, end_date date, room_number smallint, confirm_number text,
     guest_id uuid, PRIMARY KEY ((guest_last_name), hotel_id))
     WITH comment = 'Q8. Find reservations by guest name'`,
  `CREATE TABLE IF NOT EXISTS reservation.guests (guest_id uuid PRIMARY KEY, first_name text,
     last_name text, title text, emails set<text>, phone_numbers list<text>,
     addresses map<text, frozen<address>>, confirm_number text)
     WITH comment = 'Q9. Find guest by ID'`,
];

async function main() {
  const client = new cassandra.Client({
    contactPoints: [process.env.CASSANDRA_HOST || '127.0.0.1'],
    localDataCenter: 'datacenter1',
    protocolOptions: { port: Number(process.env.CASSANDRA_PORT || 9042) },
  });
  await client.connect();
  try {
    for (const statement of SCHEMA) {
      await client.execute(statement);
    }

    const addHotel = `INSERT INTO hotel.hotels_by_poi (poi_name, poi_description, hotel_id, name,
      phone, address) VALUES (?, ?, ?, ?, ?, ?)`;
    await client.execute(addHotel, ['Eiffel Tower', 'Iron lattice tower', 'AZ123',
      'Super Hotel Paris', '+33 1 23 45 67 89', { street: '1 Rue', city: 'Paris', country: 'France' }],
    { prepare: true });
    await client.execute(addHotel, ['Eiffel Tower', 'Iron lattice tower', 'AZ100',
      'Hotel Lafayette', '+33 1 00 00 00 00', null], { prepare: true });

    const addRoom = `INSERT INTO hotel.available_rooms_by_hotel_date (hotel_id, date, room_number,
      is_available) VALUES (?, ?, ?, ?)`;
    for (const [day, room, available] of [[1, 101, true], [2, 101, false], [2, 102, true],
      [3, 101, true], [5, 101, true]]) {
      await client.execute(addRoom, ['AZ123', new LocalDate(2016, 1, day), room, available],
        { prepare: true });
    }

    await client.execute(`INSERT INTO reservation.reservations_by_guest (guest_last_name,
      hotel_id, start_date, end_date, room_number, confirm_number, guest_id)
      VALUES (?, ?, ?, ?, ?, ?, ?)`, ['Nguyen', 'AZ123', new LocalDate(2016, 1, 2),
      new LocalDate(2016, 1, 4), 101, 'RS2G0Z', Uuid.fromString('5b6962dd-3f90-4c93-8f61-eabfa4a803e2')],
    { prepare: true });

    console.log('Q1. Hotels near Eiffel Tower:');
    const q1 = await client.execute('SELECT hotel_id, name, phone, address FROM hotel.hotels_by_poi ' +
      'WHERE poi_name = ?', ['Eiffel Tower'], { prepare: true });
    for (const row of q1.rows) {
      const city = row.address ? `, ${row.address.city}` : '';
      console.log(`  ${row.hotel_id} ${row.name} (phone ${row.phone})${city}`);
    }

    console.log('Q4. Rooms of AZ123 from 2016-01-02 to 2016-01-04:');
    const q4 = await client.execute('SELECT date, room_number, is_available ' +
      'FROM hotel.available_rooms_by_hotel_date WHERE hotel_id = ? AND date >= ? AND date <= ?',
    ['AZ123', new LocalDate(2016, 1, 2), new LocalDate(2016, 1, 4)], { prepare: true });
    for (const row of q4.rows) {
      const state = row.is_available ? 'available' : 'taken';
      console.log(`  ${row.date} room ${row.room_number} ${state}`);
    }

    console.log('Q8. Reservations of guest Nguyen:');
    const q8 = await client.execute('SELECT hotel_id, start_date, end_date, room_number, ' +
      'confirm_number FROM reservation.reservations_by_guest WHERE guest_last_name = ?',
    ['Nguyen'], { prepare: true });
    for (const row of q8.rows) {
      console.log(`  ${row.confirm_number} at ${row.hotel_id} from ${row.start_date} to ` +
        `${row.end_date}, room ${row.room_number}`);
    }
  } finally {
    await client.shutdown();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
